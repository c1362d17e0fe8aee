/** A package's Heat template Bosun refuses: the op occ's error names the file and what to fix. */
import { InfraError } from '../../../contract.ts';

export function hotError(file: string, problem: string): InfraError {
  return new InfraError('INVALID_REQUEST', `Heat template ${file} of the VNF package: ${problem}`, { file });
}
