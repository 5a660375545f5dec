// A list of tests: each its title, then, muted, what the list adds about it (its file, its outcome).
export function TestList<T extends { title: string }>({
  tests,
  aside,
}: {
  tests: readonly T[];
  aside?: (test: T) => string;
}) {
  return (
    <ul class="tight">
      {tests.map((test) => (
        <li key={test.title}>
          {test.title}
          {aside && <span class="muted"> ({aside(test)})</span>}
        </li>
      ))}
    </ul>
  );
}
