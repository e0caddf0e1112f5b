/** Sorted by name in code-point order (the same on every machine, unlike localeCompare). */
export function sortByName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
