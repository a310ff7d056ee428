// Text contrast as the browser renders it (WCAG 2.x): for every element on the page with text of
// its own, the computed colour against the background behind it (the nearest ancestors' background
// colours composited, so translucent fills count). Colours are read back through a canvas, which
// turns any CSS colour syntax (Tailwind's oklch, hex, rgb) into sRGB bytes.
import type { Page } from "@playwright/test";

export interface ContrastFinding {
  text: string;
  ratio: number;
  color: string;
  background: string;
  /** Large text (24 px, or 18.66 px bold) needs 3:1, other text 4.5:1. */
  large: boolean;
}

/** Every visible text of the page under `root` (a selector), with its contrast ratio. */
export async function textContrasts(page: Page, root = "body"): Promise<ContrastFinding[]> {
  return page.evaluate((rootSelector) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    const rgba = (css: string): [number, number, number, number] => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "#000";
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const over = (top: [number, number, number, number], bottom: [number, number, number]): [number, number, number] => [
      top[0] * top[3] + bottom[0] * (1 - top[3]),
      top[1] * top[3] + bottom[1] * (1 - top[3]),
      top[2] * top[3] + bottom[2] * (1 - top[3]),
    ];
    const luminance = ([r, g, b]: [number, number, number]) => {
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    /** The colour behind an element: its own and its ancestors' backgrounds, composited from the page canvas up. */
    const backgroundOf = (element: Element): [number, number, number] => {
      const layers: [number, number, number, number][] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const fill = rgba(getComputedStyle(node).backgroundColor);
        if (fill[3] > 0) layers.push(fill);
        if (fill[3] >= 1) break;
      }
      // Below everything: the canvas colour of the scheme in use.
      const dark =
        getComputedStyle(document.documentElement).colorScheme.includes("dark") && matchMedia("(prefers-color-scheme: dark)").matches;
      let color: [number, number, number] = dark ? [18, 18, 18] : [255, 255, 255];
      for (const layer of layers.reverse()) color = over(layer, color);
      return color;
    };
    const findings: ContrastFinding[] = [];
    for (const element of document.querySelectorAll(`${rootSelector}, ${rootSelector} *`)) {
      const own = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? "")
        .join("")
        .trim();
      if (!own) continue;
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || Number(style.opacity) === 0) continue;
      // Visually hidden text (sr-only) is clipped to 1 px: no one sees it.
      if (box.width <= 1 && box.height <= 1) continue;
      if (element.closest("[aria-hidden='true'], svg, option, [disabled]")) continue;
      const background = backgroundOf(element);
      const foreground = over(rgba(style.color), background);
      const [light, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      findings.push({
        text: own.slice(0, 60),
        ratio: Math.round(((light + 0.05) / (darker + 0.05)) * 100) / 100,
        color: style.color,
        background: `rgb(${background.map(Math.round).join(", ")})`,
        large: size >= 24 || (bold && size >= 18.66),
      });
    }
    return findings;
  }, root);
}

/** The findings below WCAG AA (4.5:1, or 3:1 for large text). */
export const belowAA = (findings: ContrastFinding[]) => findings.filter((f) => f.ratio < (f.large ? 3 : 4.5));
