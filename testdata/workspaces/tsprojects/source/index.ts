/** Starts the server this project is about. */
export function startServer(port: number): string {
  return `listening on ${port}`;
}
