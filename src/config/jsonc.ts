// JSON with comments and trailing commas, as OpenCode's own config files allow.

/** Removes line and block comments and trailing commas outside strings, then parses. */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (ch === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new SyntaxError("unterminated /* comment");
      i = end + 2;
    } else if (ch === ",") {
      let j = i + 1;
      // Look past whitespace and comments for a closing bracket.
      for (;;) {
        while (j < n && /\s/.test(text[j]!)) j++;
        if (text[j] === "/" && text[j + 1] === "/") while (j < n && text[j] !== "\n") j++;
        else if (text[j] === "/" && text[j + 1] === "*") j = text.indexOf("*/", j + 2) < 0 ? n : text.indexOf("*/", j + 2) + 2;
        else break;
      }
      if (text[j] !== "}" && text[j] !== "]") out += ",";
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return JSON.parse(out.charCodeAt(0) === 0xfeff ? out.slice(1) : out);
}
