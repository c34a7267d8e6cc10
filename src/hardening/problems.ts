/**
 * The one problem writer (RFC 9457, convention 7) of the sandbox and the relay: titles from the platform's table of
 * status names, one answer shape written through a reply, a raw response or a socket. Each server keeps its own
 * `type` URIs and details; how they reach the wire is written here once.
 */
import { STATUS_CODES, type ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../api";

/** A problem to answer with: its status, its body and any extra headers (Retry-After, WWW-Authenticate, Allow). */
export interface ProblemAnswer {
  status: number;
  body: Problem;
  headers: Record<string, string>;
}

/** RFC 9110 renamed 413; Node's table still says "Payload Too Large", and the servers have always answered the new name. */
const RENAMED: Readonly<Record<number, string>> = { 413: "Content Too Large" };

/** The status's name as HTTP gives it (the platform's table), "Error" for one it does not know. */
export function problemTitle(status: number): string {
  return RENAMED[status] ?? STATUS_CODES[status] ?? "Error";
}

/** Sent through fastify (the app's handlers and hooks). */
export function sendProblem(reply: FastifyReply, answer: ProblemAnswer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).type(PROBLEM_CONTENT_TYPE).send(answer.body);
}

/** Written on the raw response, for hooks whose reply is typed for no route in particular. */
export function writeProblem(response: ServerResponse, answer: ProblemAnswer): void {
  response.writeHead(answer.status, { ...answer.headers, "content-type": PROBLEM_CONTENT_TYPE }).end(JSON.stringify(answer.body));
}

/**
 * A whole HTTP/1.1 response carrying a problem, for answers written straight to a socket (a request Node could not
 * parse, a CONNECT, a timeout): the connection closes after it.
 */
export function rawProblemResponse(answer: ProblemAnswer): string {
  const body = JSON.stringify(answer.body);
  const headers = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return (
    `HTTP/1.1 ${answer.status} ${problemTitle(answer.status)}\r\n` +
    `content-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`
  );
}

/** Statuses a connection-level error answers with. */
export type ConnectionStatus = 400 | 408 | 431;

/** What a socket-level error (no request object) answers, by Node's error code. */
export function connectionProblem(code: string, timeoutMs: number): { status: ConnectionStatus; detail: string } {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return { status: 408, detail: `The request was not sent in full within ${timeoutMs / 1000} s` };
  if (code === "HPE_HEADER_OVERFLOW") return { status: 431, detail: "The request's headers are too large" };
  return { status: 400, detail: "The request could not be read as HTTP/1.1" };
}
