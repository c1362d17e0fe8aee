/**
 * `node scripts/longest-functions.ts [--top N] [--files N] [folder…]`: the N longest functions
 * (declarations, methods, accessors, constructors, function expressions and arrow functions) and
 * the N largest files under the folders (default: src), to find what to split. A function's
 * length runs from its first token (after its doc comment) to its closing brace, nested
 * functions included; a nested function is named by its enclosing ones (`outer > inner`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';

interface Measured {
  name: string;
  file: string;
  line: number;
  lines: number;
}

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '15' }, files: { type: 'string', default: '15' } },
  allowPositionals: true,
});
const top = count(values.top, '--top');
const fileTop = count(values.files, '--files');
const roots = positionals.length ? positionals : ['src'];

function count(v: string, option: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`${option} must be a positive whole number, not ${v}\n`);
    process.exit(2);
  }
  return n;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The name a function is known by: its own, else the variable, property or method holding it. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText();
  const p = node.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name)
    return p.name.getText();
  if (ts.isCallExpression(p)) return `<callback of ${p.expression.getText().slice(0, 40)}>`;
  return '<anonymous>';
}

function measure(file: string): { functions: Measured[]; lines: number } {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const functions: Measured[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node, outer: string[]) => {
    let path = outer;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      path = [...outer, nameOf(fn)];
      const line = lineOf(fn.getStart(sf));
      functions.push({ name: path.join(' > '), file, line, lines: lineOf(fn.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(sf, []);
  return {
    functions,
    lines: sf.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1),
  };
}

const functions: Measured[] = [];
const files: { file: string; lines: number }[] = [];
for (const root of roots) {
  for (const file of sourceFiles(root)) {
    const m = measure(file);
    functions.push(...m.functions);
    files.push({ file, lines: m.lines });
  }
}
const where = (file: string) => relative(process.cwd(), file);
functions.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
files.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));

const out: string[] = [`Longest functions (${roots.join(', ')}):`];
for (const f of functions.slice(0, top)) {
  out.push(`${String(f.lines).padStart(6)}  ${where(f.file)}:${f.line}  ${f.name}`);
}
out.push('', `Largest files (${roots.join(', ')}):`);
for (const f of files.slice(0, fileTop)) out.push(`${String(f.lines).padStart(6)}  ${where(f.file)}`);
process.stdout.write(`${out.join('\n')}\n`);
