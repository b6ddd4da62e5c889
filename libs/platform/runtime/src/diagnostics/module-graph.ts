import type { GovernanceModule } from '@lp/contracts';

/**
 * The strongly connected components of a module graph that are cycles: components of two or more
 * modules, and single modules importing themselves (Tarjan's algorithm, iterative so a deep graph
 * cannot overflow the stack). Each cycle and the list are sorted, so the report is stable.
 */
export function findModuleCycles(modules: readonly GovernanceModule[]): string[][] {
  const edges = new Map<string, string[]>(modules.map((m) => [m.name, m.imports]));
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;

  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    // Each frame is a node and the position of the next edge to follow from it.
    const frames: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    lowLink.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { node: string; edge: number };
      const targets = edges.get(frame.node) ?? [];
      const target = targets[frame.edge++];
      if (target !== undefined) {
        if (!edges.has(target)) continue; // an import outside the graph cannot close a cycle
        if (!index.has(target)) {
          index.set(target, next);
          lowLink.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node) ?? 0, lowLink.get(frame.node) ?? 0));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || targets.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** Mermaid node ids must be plain words; the label keeps the module's real name. */
function mermaidId(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The graph as Mermaid text: one node per module, one arrow per direct import (`A --> B`: A imports B). */
export function mermaidModuleGraph(modules: readonly GovernanceModule[]): string {
  const lines = ['graph TD'];
  for (const module of modules) lines.push(`  ${mermaidId(module.name)}["${module.name.replace(/"/g, '#quot;')}"]`);
  for (const module of modules) {
    for (const target of module.imports) lines.push(`  ${mermaidId(module.name)} --> ${mermaidId(target)}`);
  }
  return lines.join('\n');
}
