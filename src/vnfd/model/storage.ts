/** Virtual storages: block (volumes, possibly created from an image), object and file storage. */
import { swImageArtifacts } from './images.ts';
import type { TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { bool, isRecord, rec, sizeBytes, str } from './values.ts';
import type { Storage } from './vnfd.ts';

export function readStorages(scope: TemplateScope): Storage[] {
  const out: Storage[] = [];
  for (const node of Object.values(scope.topology.nodeTemplates)) {
    const p = node.properties;
    let kind: Storage['kind'];
    let size: number | undefined;
    let rdma: boolean | undefined;
    if (scope.types.isA(node.type, SOL001.blockStorage)) {
      kind = 'block';
      const data = rec(p.virtual_block_storage_data);
      size = sizeBytes(data.size_of_storage);
      rdma = bool(data.rdma_enabled);
    } else if (scope.types.isA(node.type, SOL001.objectStorage)) {
      kind = 'object';
      size = sizeBytes(rec(p.virtual_object_storage_data).max_size_of_storage);
    } else if (scope.types.isA(node.type, SOL001.fileStorage)) {
      kind = 'file';
      size = sizeBytes(rec(p.virtual_file_storage_data).size_of_storage);
    } else {
      continue;
    }
    out.push({
      id: node.name,
      type: node.type,
      kind,
      sizeOfStorage: size,
      rdmaEnabled: rdma,
      swImage:
        swImageArtifacts(scope.types, node).length > 0 && isRecord(p.sw_image_data) ? node.name : undefined,
      swImageName: str(rec(p.sw_image_data).name),
      loc: node.loc,
    });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
