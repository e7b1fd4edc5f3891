// OpenCode 2 loads a plugin given as a local directory from `<directory>/server` (or `<directory>/index`),
// not from package.json: this is that entry for a checkout (built into dist/ by `npm ci`).
export { default } from "./dist/index.js";
