import { pino, type Logger, type LoggerOptions } from 'pino';
import { redactingLoggerOptions } from './log-redaction.js';

/**
 * The log of lines a process writes outside a request (its first owner, a start that failed, a
 * job worker's events): pino JSON lines on stdout with the request log's redaction, so a log
 * shipper or pino-pretty reads every line the same way. Writes are synchronous: a line logged just
 * before `process.exit` is not lost.
 */
export function processLogger(level = 'info'): Logger {
  return pino<never>(redactingLoggerOptions(level) as LoggerOptions<never>);
}
