export function parse(input: string): number;
export function parse(input: string, radix: number): number;
export function parse(input: string, radix?: number): number {
  return parseInt(input, radix ?? 10);
}

export class Reader {
  read(): string;
  read(n: number): string;
  read(n?: number): string {
    return parse(String(n)).toString();
  }
}
