/** Change external connectivity: the flavour's external CPs, each to a VIM network. */
import { useState } from 'preact/hooks';
import { ExtLinkFields, extVirtualLinks, type Networks } from './ext-links.tsx';
import type { OperationFormProps } from './types.ts';

export function ChangeExtConnForm(props: OperationFormProps) {
  const [networks, setNetworks] = useState<Networks>({});
  const links = extVirtualLinks(networks);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({ extVirtualLinks: links });
      }}
    >
      <ExtLinkFields extCps={props.flavour?.extCps ?? []} value={networks} onChange={setNetworks} />
      <button type="submit" class="primary" disabled={props.busy || links.length === 0}>
        Change connectivity
      </button>
    </form>
  );
}
