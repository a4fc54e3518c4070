/**
 * What help, completion and the docs need to know about a command that
 * commander does not keep: its spec, its group and its examples.
 */
import type { Command } from 'commander';
import type { CommandGroup, CommandSpec } from './command-spec.js';

interface Meta {
  readonly spec?: CommandSpec;
  readonly group?: CommandGroup;
  readonly examples: readonly string[];
}
export const META = new WeakMap<Command, Meta>();

export function hidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

/** The examples of a command, for help and for the test that runs them all. */
export function examplesOf(command: Command): readonly string[] {
  return META.get(command)?.examples ?? [];
}

export function groupOf(command: Command): CommandGroup | undefined {
  return META.get(command)?.group;
}
