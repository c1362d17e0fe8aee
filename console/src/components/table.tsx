/**
 * A table of items with named columns; on a narrow window each row becomes a block of
 * "label: value" lines (styles.css), so nothing needs horizontal scrolling on a phone.
 */
import type { ComponentChildren } from 'preact';

export interface Column<T> {
  header: string;
  cell: (item: T) => ComponentChildren;
}

export function Table<T>(props: {
  caption: string;
  /** Show the caption (a heading inside the card) instead of only telling screen readers. */
  showCaption?: boolean;
  columns: Column<T>[];
  rows: T[];
  rowKey: (item: T, index: number) => string;
}) {
  return (
    // Focusable and named: a table wider than the window scrolls in its own box, by keyboard too
    // (WCAG 2.1.1; axe's scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section class="table-scroll" tabIndex={0} aria-label={props.caption}>
      <table>
        <caption class={props.showCaption ? 'caption' : 'visually-hidden'}>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" key={c.header}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((item, i) => (
            <tr key={props.rowKey(item, i)}>
              {props.columns.map((c) => (
                <td key={c.header} data-label={c.header}>
                  {c.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
