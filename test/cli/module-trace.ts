/**
 * Preloaded with `--import` into a `bosun` process by the start-up test: at exit, writes the URL
 * of every module the process resolved to the file named by BOSUN_TEST_MODULE_TRACE, one a line.
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.BOSUN_TEST_MODULE_TRACE;
const resolved = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    resolved.add(result.url);
    return result;
  },
});
process.once('exit', () => {
  if (file) writeFileSync(file, [...resolved].join('\n'));
});
