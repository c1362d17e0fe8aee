/**
 * A subset of Go's text/template with Helm's functions, enough for the charts of Tacker's Helm
 * samples (helm create's scaffold): values and .Release/.Chart fields, variables, define/include/
 * template, if/else if/else, with, range, pipelines, comments, whitespace trimming ({{- -}}) and the
 * functions below. Anything else is an error naming it, as Helm's parse errors are.
 */
import { stringify } from 'yaml';

type Node =
  | { t: 'text'; text: string }
  | { t: 'action'; pipe: Pipe }
  | { t: 'if' | 'with'; pipe: Pipe; yes: Node[]; no: Node[] }
  | { t: 'range'; pipe: Pipe; vars: string[]; body: Node[]; else: Node[] }
  | { t: 'template'; name: string; pipe?: Pipe };

interface Pipe {
  decl?: { vars: string[]; assign: boolean };
  cmds: Arg[][];
}

type Arg =
  | { a: 'lit'; v: unknown }
  | { a: 'field'; path: string[] }
  | { a: 'var'; name: string; path: string[] }
  | { a: 'ident'; name: string }
  | { a: 'pipe'; pipe: Pipe };

type Item = { k: 'text'; text: string } | { k: 'act'; src: string };

function lex(src: string): Item[] {
  const out: Item[] = [];
  const re = /\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g;
  let last = 0;
  let trimNext = false;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    let text = src.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1]) text = text.replace(/\s+$/, '');
    if (text) out.push({ k: 'text', text });
    const body = (m[2] ?? '').trim();
    if (!body.startsWith('/*')) out.push({ k: 'act', src: body });
    trimNext = !!m[3];
    last = re.lastIndex;
  }
  let tail = src.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  if (tail) out.push({ k: 'text', text: tail });
  return out;
}

const TOKEN =
  /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(-?\d+(?:\.\d+)?)|(:=|=|\||\(|\)|,)|(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(\.[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|([A-Za-z_][A-Za-z0-9_]*))/y;

function tokens(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m || m[0].trim() === '') {
      if (src.slice(at).trim() === '') break;
      throw new Error(`template: unexpected "${src.slice(at).trim()}" in "${src}"`);
    }
    out.push(m[0].trim());
  }
  return out;
}

function parsePipe(toks: string[], pos = { i: 0 }, stop = ''): Pipe {
  const pipe: Pipe = { cmds: [] };
  // Declarations: $a := or $i, $v :=
  const save = pos.i;
  const vars: string[] = [];
  while (toks[pos.i]?.startsWith('$')) {
    vars.push(toks[pos.i] as string);
    pos.i++;
    if (toks[pos.i] === ',') pos.i++;
    else break;
  }
  if (vars.length && (toks[pos.i] === ':=' || toks[pos.i] === '=')) {
    pipe.decl = { vars, assign: toks[pos.i] === '=' };
    pos.i++;
  } else pos.i = save;
  let cmd: Arg[] = [];
  while (pos.i < toks.length && toks[pos.i] !== stop) {
    const t = toks[pos.i++] as string;
    if (t === '|') {
      pipe.cmds.push(cmd);
      cmd = [];
    } else if (t === '(') {
      cmd.push({ a: 'pipe', pipe: parsePipe(toks, pos, ')') });
      pos.i++;
    } else cmd.push(argOf(t));
  }
  pipe.cmds.push(cmd);
  return pipe;
}

function argOf(t: string): Arg {
  if (t.startsWith('"')) return { a: 'lit', v: JSON.parse(t) };
  if (t.startsWith('`')) return { a: 'lit', v: t.slice(1, -1) };
  if (/^-?\d/.test(t)) return { a: 'lit', v: Number(t) };
  if (t === 'true' || t === 'false') return { a: 'lit', v: t === 'true' };
  if (t === 'nil') return { a: 'lit', v: null };
  if (t.startsWith('$')) {
    const [name, ...path] = t.split('.');
    return { a: 'var', name: name as string, path };
  }
  if (t.startsWith('.')) return { a: 'field', path: t.split('.').slice(1).filter(Boolean) };
  return { a: 'ident', name: t };
}

/** Parses a template file; `define`d templates go into `defs`. */
export function parse(src: string, defs: Map<string, Node[]>): Node[] {
  const items = lex(src);
  let i = 0;
  const block = (ends: string[]): { nodes: Node[]; end: string } => {
    const nodes: Node[] = [];
    while (i < items.length) {
      const item = items[i++] as Item;
      if (item.k === 'text') {
        nodes.push({ t: 'text', text: item.text });
        continue;
      }
      const toks = tokens(item.src);
      const head = toks[0];
      if (head === 'end' || head === 'else') {
        if (!ends.includes(head)) throw new Error(`template: unexpected {{${item.src}}}`);
        return { nodes, end: item.src };
      }
      if (head === 'if' || head === 'with') nodes.push(conditional(head, toks.slice(1)));
      else if (head === 'range') {
        const pipe = parsePipe(toks.slice(1));
        const body = block(['end', 'else']);
        const other = body.end === 'else' ? block(['end']).nodes : [];
        nodes.push({ t: 'range', pipe, vars: pipe.decl?.vars ?? [], body: body.nodes, else: other });
      } else if (head === 'define') {
        const name = JSON.parse(toks[1] as string) as string;
        defs.set(name, block(['end']).nodes);
      } else if (head === 'template') {
        const rest = toks.slice(2);
        nodes.push({
          t: 'template',
          name: JSON.parse(toks[1] as string),
          ...(rest.length ? { pipe: parsePipe(rest) } : {}),
        });
      } else nodes.push({ t: 'action', pipe: parsePipe(toks) });
    }
    if (ends.length) throw new Error('template: unexpected EOF (missing {{end}})');
    return { nodes, end: '' };
  };
  const conditional = (kind: 'if' | 'with', toks: string[]): Node => {
    const pipe = parsePipe(toks);
    const then = block(['end', 'else']);
    let other: Node[] = [];
    if (then.end !== 'end') {
      const rest = tokens(then.end).slice(1);
      if (rest[0] === 'if' || rest[0] === 'with') {
        other = [conditional(rest[0], rest.slice(1))];
      } else other = block(['end']).nodes;
    }
    return { t: kind, pipe, yes: then.nodes, no: other };
  };
  return block([]).nodes;
}

const truthy = (v: unknown): boolean => {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
};

const print = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') {
    if (Array.isArray(v)) return `[${v.map(print).join(' ')}]`;
    return `map[${Object.entries(v)
      .map(([k, x]) => `${k}:${print(x)}`)
      .join(' ')}]`;
  }
  return String(v);
};

const toYaml = (v: unknown): string =>
  v === undefined || v === null ? 'null' : stringify(v, { lineWidth: 0 }).replace(/\n$/, '');

function printf(format: string, ...args: unknown[]): string {
  let n = 0;
  return format.replace(/%([sdvq%])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    const a = args[n++];
    return verb === 'q' ? JSON.stringify(print(a)) : print(a);
  });
}

type Fn = (...args: unknown[]) => unknown;

const indent = (n: unknown, s: unknown) =>
  print(s)
    .split('\n')
    .map((l) => ' '.repeat(Number(n)) + l)
    .join('\n');

const FUNCS: Record<string, Fn> = {
  default: (d, v) => (truthy(v) ? v : d),
  quote: (...v) => v.map((x) => JSON.stringify(print(x))).join(' '),
  squote: (...v) => v.map((x) => `'${print(x)}'`).join(' '),
  indent,
  nindent: (n, s) => `\n${indent(n, s)}`,
  toYaml,
  trunc: (n, s) => print(s).slice(0, Number(n)),
  trimSuffix: (suffix, s) => {
    const str = print(s);
    const suf = print(suffix);
    return suf && str.endsWith(suf) ? str.slice(0, -suf.length) : str;
  },
  trimPrefix: (prefix, s) => {
    const str = print(s);
    const pre = print(prefix);
    return pre && str.startsWith(pre) ? str.slice(pre.length) : str;
  },
  trim: (s) => print(s).trim(),
  upper: (s) => print(s).toUpperCase(),
  lower: (s) => print(s).toLowerCase(),
  printf: (f, ...a) => printf(print(f), ...a),
  print: (...a) => a.map(print).join(''),
  replace: (o, n, s) => print(s).split(print(o)).join(print(n)),
  contains: (sub, s) => print(s).includes(print(sub)),
  hasPrefix: (p, s) => print(s).startsWith(print(p)),
  toString: (v: unknown) => print(v),
  int: (v) => Math.trunc(Number(v)),
  eq: (a, ...b) => b.some((x) => x === a),
  ne: (a, b) => a !== b,
  not: (v) => !truthy(v),
  and: (...v) => v.find((x) => !truthy(x)) ?? v[v.length - 1],
  or: (...v) => v.find(truthy) ?? v[v.length - 1],
  empty: (v) => !truthy(v),
  len: (v: unknown) => (Array.isArray(v) || typeof v === 'string' ? v.length : Object.keys(v ?? {}).length),
  list: (...v) => v,
  dict: (...v) =>
    Object.fromEntries(Array.from({ length: v.length / 2 }, (_, i) => [v[2 * i], v[2 * i + 1]])),
  b64enc: (s) => Buffer.from(print(s)).toString('base64'),
};

interface Scope {
  dot: unknown;
  vars: Map<string, unknown>;
}

const walk = (v: unknown, path: string[]): unknown =>
  path.reduce<unknown>(
    (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
    v,
  );

/** Renders `nodes` with `dot` as `.` and `$`. */
export function render(nodes: Node[], dot: unknown, defs: Map<string, Node[]>): string {
  const funcs: Record<string, Fn> = {
    ...FUNCS,
    include: (name, d) => run(named(print(name)), { dot: d, vars: new Map([['$', d]]) }),
  };
  const named = (name: string) => {
    const t = defs.get(name);
    if (!t) throw new Error(`template: no template "${name}" associated with template "gotpl"`);
    return t;
  };
  const value = (arg: Arg, scope: Scope): unknown => {
    switch (arg.a) {
      case 'lit':
        return arg.v;
      case 'field':
        return walk(scope.dot, arg.path);
      case 'var': {
        if (!scope.vars.has(arg.name)) throw new Error(`template: undefined variable "${arg.name}"`);
        return walk(scope.vars.get(arg.name), arg.path);
      }
      case 'pipe':
        return pipe(arg.pipe, scope);
      case 'ident': {
        const f = funcs[arg.name];
        if (!f) throw new Error(`template: function "${arg.name}" not defined`);
        return f();
      }
    }
  };
  const pipe = (p: Pipe, scope: Scope): unknown => {
    let result: unknown;
    p.cmds.forEach((cmd, n) => {
      const [head, ...rest] = cmd;
      if (!head) throw new Error('template: missing value for command');
      if (head.a === 'ident') {
        const f = funcs[head.name];
        if (!f) throw new Error(`template: function "${head.name}" not defined`);
        const args = rest.map((a) => value(a, scope));
        result = f(...(n > 0 ? [...args, result] : args));
      } else {
        if (rest.length || n > 0) throw new Error("template: can't give argument to non-function");
        result = value(head, scope);
      }
    });
    if (p.decl) for (const v of p.decl.vars) scope.vars.set(v, result);
    return result;
  };
  const run = (list: Node[], scope: Scope): string => {
    let out = '';
    for (const node of list) {
      if (node.t === 'text') out += node.text;
      else if (node.t === 'action') {
        const v = pipe(node.pipe, scope);
        if (!node.pipe.decl) out += print(v);
      } else if (node.t === 'if') {
        out += run(truthy(pipe(node.pipe, scope)) ? node.yes : node.no, scope);
      } else if (node.t === 'with') {
        const v = pipe(node.pipe, scope);
        out += truthy(v) ? run(node.yes, { dot: v, vars: scope.vars }) : run(node.no, scope);
      } else if (node.t === 'range') {
        const v = pipe({ cmds: node.pipe.cmds }, scope);
        const entries: [unknown, unknown][] = Array.isArray(v)
          ? v.map((x, i) => [i, x])
          : v && typeof v === 'object'
            ? Object.entries(v).sort(([a], [b]) => a.localeCompare(b))
            : [];
        if (!entries.length) out += run(node.else, scope);
        for (const [k, x] of entries) {
          const vars = new Map(scope.vars);
          if (node.vars.length === 1) vars.set(node.vars[0] as string, x);
          if (node.vars.length === 2) {
            vars.set(node.vars[0] as string, k);
            vars.set(node.vars[1] as string, x);
          }
          out += run(node.body, { dot: x, vars });
        }
      } else if (node.t === 'template') {
        const d = node.pipe ? pipe(node.pipe, scope) : undefined;
        out += run(named(node.name), { dot: d, vars: new Map([['$', d]]) });
      }
    }
    return out;
  };
  return run(nodes, { dot, vars: new Map([['$', dot]]) });
}
