import type { ReactNode } from "react";

/** A table's column headings. */
export function TableHead({ columns }: { columns: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th scope="col" key={index}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
