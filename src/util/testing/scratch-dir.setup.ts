// Vitest setup of the unit project: each test file's scratch folders are removed after it.
import { afterAll } from "vitest";
import { removeScratchDirs } from "./scratch-dir.ts";

afterAll(removeScratchDirs);
