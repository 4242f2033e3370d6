import { version } from "./version";

export function banner(): string {
  return "lib " + version;
}
