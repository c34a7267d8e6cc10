/**
 * Functions and files over their length limits in src/ (issue 30: no function over 150 lines, its inner
 * functions included; no file over 450): `npm run lengths` prints them, longest first, and exits 1 if any.
 * Read with the TypeScript compiler's own parser, so a function is what the language says it is.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const MAX_FUNCTION_LINES = 150;
export const MAX_FILE_LINES = 450;

export interface Length {
  file: string;
  name: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** What a function is called where it is written: its own name, its variable's, its property's, or its place. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = (node as { name?: ts.Node }).name;
  if (named !== undefined) return named.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return `(anonymous at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
}

export function functionLengths(root: string): Length[] {
  const found: Length[] = [];
  for (const path of sourceFiles(join(root, "src"))) {
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ file: relative(root, path), name: nameOf(node, source), lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

export function fileLengths(root: string): Length[] {
  return sourceFiles(join(root, "src"))
    .map((path) => ({ file: relative(root, path), name: "(file)", lines: readFileSync(path, "utf8").split("\n").length - 1 }))
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1]?.endsWith("code-lengths.ts")) {
  const root = process.cwd();
  const functions = functionLengths(root).filter((item) => item.lines > MAX_FUNCTION_LINES);
  const files = fileLengths(root).filter((item) => item.lines > MAX_FILE_LINES);
  for (const item of functions) console.log(`function ${item.lines} ${item.file} ${item.name}`);
  for (const item of files) console.log(`file ${item.lines} ${item.file}`);
  console.log(`${functions.length} functions over ${MAX_FUNCTION_LINES} lines, ${files.length} files over ${MAX_FILE_LINES} lines`);
  process.exitCode = functions.length + files.length > 0 ? 1 : 0;
}
