/** pgpass (pg's own ~/.pgpass reader) ships no types: the one call used. */
declare module 'pgpass' {
  export default function pgpass(
    connection: object,
    callback: (password: string | undefined) => void,
  ): void;
}
