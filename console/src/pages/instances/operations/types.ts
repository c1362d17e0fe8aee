/** What every LCM operation form gets, and how it hands back the request body it built. */
import type { InstantiatedVnfInfo, VnfInstance } from '../../../api/sol/instances.ts';
import type { Flavour, VnfdModel } from '../../../api/sol/vnfd-model.ts';

export interface OperationFormProps {
  instance: VnfInstance;
  /** The VNFD, when the caller may read the package. */
  model?: VnfdModel;
  /** The flavour the instance runs, from the VNFD. */
  flavour?: Flavour;
  info?: InstantiatedVnfInfo;
  /** Sends the task with this body; the form stays open with the problem when it is refused. */
  submit: (body: Record<string, unknown>) => void;
  busy: boolean;
}

export interface OperationSpec {
  /** The `_links` name of the instance that offers the task (the API says when it is allowed). */
  link: string;
  /** The task's path segment under the instance. */
  path: string;
  label: string;
  /** A form a user may get wrong in a costly way asks once more. */
  danger?: boolean;
  Form: (props: OperationFormProps) => preact.JSX.Element;
}
