// A table in a box of its own, which scrolls sideways on a narrow screen so the page never does: its column
// headings (plain ones by name, or a row of the caller's), then its body.
import type { ComponentChildren } from 'preact';

export function BoxedTable({
  columns = [],
  head,
  caption,
  children,
}: {
  columns?: readonly string[];
  head?: ComponentChildren;
  caption?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <div class="table-box">
      <table>
        {caption && <caption class="muted">{caption}</caption>}
        <thead>
          {head ?? (
            <tr>
              {columns.map((name) => (
                <th scope="col" key={name}>
                  {name}
                </th>
              ))}
            </tr>
          )}
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
