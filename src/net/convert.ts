// Turns a fetched body into text to index: HTML into markdown (turndown), without scripts, styles and
// page chrome; JSON pretty-printed; everything decoded by its declared (or sniffed) charset.
import type TurndownService from 'turndown';
import { AppError, ErrorCode } from '../errors.ts';

export type FetchFormat = 'markdown' | 'html' | 'json';

export interface Converted {
  text: string;
  title: string | undefined;
  /** How the text should be chunked. */
  chunkAs: 'markdown' | 'json' | 'text';
}

const NOISE = ['script', 'style', 'noscript', 'nav', 'footer', 'header', 'aside', 'form', 'button', 'iframe', 'canvas', 'template', 'head'] as const;

function charsetOf(contentType: string, bytes: Uint8Array): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (declared) return declared;
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ?? 'utf-8';
}

export function decodeBody(bytes: Uint8Array, contentType: string): string {
  const charset = charsetOf(contentType, bytes);
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function isHtml(contentType: string, text: string): boolean {
  return /html|xml/i.test(contentType) || /^\s*(<!doctype html|<html|<head|<body)/i.test(text);
}

let turndown: TurndownService | undefined;

/**
 * turndown (with its DOM, domino) is loaded at the first page to convert: evaluating it took a new
 * server ~0.13 s of its main thread when the tools' code loaded, beside its first search.
 */
async function toMarkdown(html: string): Promise<string> {
  if (!turndown) {
    const { default: TurndownService } = await import('turndown');
    turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    turndown.remove([...NOISE]);
    // svg is not in the HTML element map the types know, but it is noise all the same.
    turndown.remove((node) => node.nodeName.toLowerCase() === 'svg');
  }
  return turndown.turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}

export async function convertBody(bytes: Uint8Array, contentType: string, format: FetchFormat, url: string): Promise<Converted> {
  const text = decodeBody(bytes, contentType);
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim() || undefined;
  if (format === 'json') {
    try {
      return { text: JSON.stringify(JSON.parse(text), null, 2), title: undefined, chunkAs: 'json' };
    } catch {
      throw new AppError(ErrorCode.InvalidArgument, `${url} did not answer JSON (content-type ${contentType || 'unknown'})`, { hint: 'fetch it with format markdown or html' });
    }
  }
  if (format === 'html') return { text, title, chunkAs: 'text' };
  if (/json/i.test(contentType)) {
    try {
      return { text: JSON.stringify(JSON.parse(text), null, 2), title: undefined, chunkAs: 'json' };
    } catch {
      // Mislabelled: index it as text below.
    }
  }
  if (isHtml(contentType, text)) {
    const markdown = await toMarkdown(text);
    return { text: title && !markdown.startsWith('# ') ? `# ${title}\n\n${markdown}` : markdown, title, chunkAs: 'markdown' };
  }
  return { text, title, chunkAs: /markdown/i.test(contentType) || /\.md$/i.test(new URL(url).pathname) ? 'markdown' : 'text' };
}
