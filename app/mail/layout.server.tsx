// The one layout of KeyLedger's mails: a few paragraphs, one button, the link written out for
// mail programs that hide buttons, and small print. The plain-text part says the same in the same
// order. Values reach the HTML through React, so names and addresses are escaped.
import { renderToStaticMarkup } from "react-dom/server";

export interface MailContent {
  language: string;
  subject: string;
  /** Before the button. */
  paragraphs: string[];
  action: { label: string; url: string; intro: string };
  /** Further links after the button, each with a sentence that says what it is for. */
  links?: { intro: string; url: string }[];
  /** After the button, in small print (expiry, "ignore this if ..."). */
  notes: string[];
}

const small = { fontSize: 13, color: "#475569" } as const;

/** A moment as mails state it: "2026-11-23 14:05" (UTC; the text says so). */
export function mailTime(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}

export function composeMail(content: MailContent): { subject: string; text: string; html: string } {
  const { action } = content;
  const links = content.links ?? [];
  const text =
    [...content.paragraphs, `${action.intro}\n${action.url}`, ...links.map((l) => `${l.intro}\n${l.url}`), ...content.notes].join("\n\n") +
    "\n";
  const html = renderToStaticMarkup(
    <html lang={content.language}>
      <body style={{ fontFamily: "system-ui, sans-serif", color: "#0f172a", lineHeight: 1.5 }}>
        {content.paragraphs.map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
        <p>
          <a
            href={action.url}
            style={{ background: "#4f46e5", color: "#ffffff", padding: "10px 16px", borderRadius: 6, textDecoration: "none" }}
          >
            {action.label}
          </a>
        </p>
        <p style={small}>
          {action.intro} <a href={action.url}>{action.url}</a>
        </p>
        {links.map((link, i) => (
          <p key={i}>
            {link.intro} <a href={link.url}>{link.url}</a>
          </p>
        ))}
        {content.notes.map((note, i) => (
          <p key={i} style={small}>
            {note}
          </p>
        ))}
      </body>
    </html>,
  );
  return { subject: content.subject, text, html: `<!doctype html>${html}` };
}

/** One language's words of a mail that may go out in several at once. */
export interface MailPart {
  subject: string;
  paragraphs: string[];
  action: string;
  linkIntro: string;
  note: string;
}

/** A mail in each of `parts`' languages, one after the other (a person whose language is not
 * known reads both): subjects, button label and link sentence joined with " / ". */
export function composeMailIn(
  languages: readonly string[],
  parts: MailPart[],
  url: string,
): { subject: string; text: string; html: string } {
  return composeMail({
    language: languages[0] ?? "en",
    subject: parts.map((part) => part.subject).join(" / "),
    paragraphs: parts.flatMap((part) => part.paragraphs),
    action: {
      label: parts.map((part) => part.action).join(" / "),
      url,
      intro: parts.map((part) => part.linkIntro).join(" / "),
    },
    notes: parts.map((part) => part.note),
  });
}
