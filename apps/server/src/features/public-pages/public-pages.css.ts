/**
 * The critical CSS of the server-rendered page top (public-pages.ts), inlined in <head>: the values
 * Mantine's Container, Stepper, Card, Badge, Button and Typography take with apps/web/src/app/theme.ts
 * (spacing md 16px, lg 20px; radius md 8px; breakpoints xs 576px, sm 769px, md 992px; teal 7 the
 * primary colour), written out because Mantine's own stylesheet is not loaded yet when this paints.
 * public-pages.int.test.ts keeps it free of anything but rules for `.ssr` markup.
 */
const BODY_FONT = `Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`;
const HEADING_FONT = `-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'`;

export const PUBLIC_PAGE_CSS = [
  `body{margin:0}`,
  `.ssr,.ssr *,.ssr *::before,.ssr *::after{box-sizing:border-box}`,
  `.ssr{background:#f8f9fa;min-height:100dvh;font-family:${BODY_FONT};font-size:16px;line-height:1.55;color:#000;-webkit-font-smoothing:antialiased;-moz-osx-font-smoothing:grayscale}`,
  `.ssr-c{max-width:1140px;margin:0 auto;padding:16px}`,
  `@media (min-width:769px){.ssr-c{padding:32px 16px}}`,
  // Drawn again by the SPA inside its public layout while the page waits (components/server-shell.tsx):
  // the layout's Container gives the width and padding.
  `.ssr[data-nested]{min-height:0;background:none}.ssr[data-nested]>.ssr-c{max-width:none;padding:0}`,
  `.ssr p{margin:0}`,
  `.ssr-brand{display:flex;justify-content:space-between;align-items:center;gap:10px;margin-bottom:20px}`,
  `.ssr-brand-in{display:flex;align-items:center;gap:12px;flex-wrap:nowrap}`,
  `.ssr-logo{width:44px;height:44px;border-radius:8px;flex-shrink:0;object-fit:cover;display:block}`,
  `.ssr-initials{display:flex;align-items:center;justify-content:center;background:#0b7a5a;color:#fff;font-weight:700;font-size:17.6px;line-height:1}`,
  `.ssr-brand-name{font-weight:700;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}`,
  `.ssr-steps{display:flex;align-items:center;flex-wrap:nowrap;margin-bottom:16px}`,
  `.ssr-step{display:flex;align-items:center}`,
  `.ssr-step-icon{width:36px;height:36px;border-radius:1000px;border:2px solid #e9ecef;background:#e9ecef;color:#495057;display:flex;align-items:center;justify-content:center;font-size:14px;font-weight:700;flex-shrink:0}`,
  `.ssr-step[data-active] .ssr-step-icon{border-color:#0b7a5a}`,
  `.ssr-step-label{margin-inline-start:12px;font-size:14px;font-weight:600;line-height:1}`,
  `.ssr-step-sep{flex:1;height:2px;background:#e9ecef;margin-inline:8px;min-width:8px}`,
  `.ssr-grid{display:flex;flex-wrap:wrap;gap:20px}`,
  `.ssr-main,.ssr-side{flex:0 0 100%;max-width:100%}`,
  `@media (min-width:992px){.ssr-main{flex-basis:calc(66.6667% - 6.6667px);max-width:calc(66.6667% - 6.6667px)}.ssr-side{flex-basis:calc(33.3333% - 13.3333px);max-width:calc(33.3333% - 13.3333px)}}`,
  // The registration page's columns are 7 and 5 of 12 (Mantine Grid, gap lg).
  `@media (min-width:992px){.ssr-main.ssr-main7{flex-basis:calc(58.3333% - 8.3333px);max-width:calc(58.3333% - 8.3333px)}.ssr-side.ssr-side5{flex-basis:calc(41.6667% - 11.6667px);max-width:calc(41.6667% - 11.6667px)}.ssr-sticky{position:sticky;top:16px}}`,
  `.ssr-card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.05),0 1px 2px rgba(0,0,0,.1);display:flex;flex-direction:column}`,
  `.ssr-stack{gap:16px}`,
  `.ssr-stack4{gap:4px}`,
  `.ssr-head{display:flex;flex-direction:column;gap:6px}`,
  `.ssr-title{margin:0;font-family:${HEADING_FONT};font-weight:700;font-size:24px;line-height:1.3}`,
  `@media (min-width:769px){.ssr-title{font-size:30px}}`,
  `.ssr-title.ssr-mb{margin-bottom:16px}`,
  `.ssr-dimmed{font-size:14px;line-height:1.45;color:#687079}`,
  `.ssr-badges{display:flex;flex-wrap:wrap;gap:10px}`,
  `.ssr-badge{display:inline-flex;align-items:center;height:26px;padding:0 12px;border:1px solid transparent;border-radius:4px;font-size:13px;font-weight:700;line-height:24px;letter-spacing:.25px;white-space:nowrap;background:#c3fae8;color:#075e45}`,
  `.ssr-badge-grape{background:#f3d9fa;color:#862e9c}`,
  `.ssr-rich{font-size:16px;line-height:1.55}`,
  `.ssr-lg{font-size:18px}`,
  `.ssr-rich :first-child{margin-top:0}`,
  `.ssr-rich :last-child{margin-bottom:0}`,
  `.ssr-rich p{margin-top:0;margin-bottom:20px}`,
  `.ssr-rich :where(ul,ol):not([data-type]){margin-top:0;margin-bottom:16px;padding-inline-start:32px}`,
  `.ssr-rich :where(h1,h2,h3,h4){margin-bottom:10px;font-family:${HEADING_FONT};font-weight:700}`,
  `.ssr-rich h1{margin-top:48px;font-size:34px;line-height:1.3}`,
  `.ssr-rich h2{margin-top:32px;font-size:26px;line-height:1.35}`,
  `.ssr-rich h3{margin-top:25.6px;font-size:22px;line-height:1.4}`,
  `.ssr-rich h4{margin-top:25.6px;font-size:18px;line-height:1.45}`,
  `.ssr-rich img{max-width:100%}`,
  `.ssr-rich a{color:#0b7a5a}`,
  `.ssr-actions{display:flex;flex-direction:column;align-items:flex-start;gap:10px}`,
  `.ssr-button{height:42px;padding:0 22px;border:1px solid transparent;border-radius:8px;background:#0b7a5a;color:#fff;font:600 16px/1 ${BODY_FONT};width:100%}`,
  `.ssr-button:disabled{background:#e9ecef;color:#adb5bd}`,
  `.ssr-button[data-pending]:disabled{background:#0b7a5a;color:#fff;cursor:progress}`,
  `@media (min-width:576px){.ssr-button{width:240px}}`,
  `.ssr-alert{padding:16px;border-radius:8px;background:#fff4e6;color:#000;font-size:14px}`,
  `.ssr-divider{margin:0;border:0;border-top:1px solid #dee2e6}`,
  `.ssr-h4{margin:0;font-family:${HEADING_FONT};font-weight:700;font-size:18px;line-height:1.45}`,
  `.ssr-strong{font-weight:600}`,
  `.ssr-bold{font-weight:700}`,
  // The registration page's child block, date field and buttons (Paper, DateInput, Button).
  `.ssr-paper{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:16px;box-shadow:0 1px 3px rgba(0,0,0,.05),0 1px 2px rgba(0,0,0,.1);display:flex;flex-direction:column;gap:12px}`,
  `.ssr-label{display:inline-block;font-size:14px;font-weight:600;line-height:1.55}`,
  `.ssr-input{display:block;width:100%;height:36px;margin:0;padding:0 12px;border:1px solid #ced4da;border-radius:8px;background:#fff;color:#000;font:14px/34px ${BODY_FONT}}`,
  `.ssr-input::placeholder{color:#adb5bd;opacity:1}`,
  `.ssr-btn{display:block;width:100%;height:36px;margin:0;padding:0 18px;border:1px solid transparent;border-radius:8px;font:600 14px/1 ${BODY_FONT};cursor:progress}`,
  `.ssr-btn-light{background:#c3fae8;color:#075e45}`,
  `.ssr-btn-filled{height:42px;padding:0 22px;font-size:16px;background:#0b7a5a;color:#fff}`,
  `.ssr-btn-default{background:#fff;color:#000;border-color:#ced4da}`,
  `.ssr-sm{font-size:14px;line-height:1.45}`,
  `.ssr-link{color:#0b7a5a;font-size:14px;line-height:1.45;min-height:24px;margin-top:4px;text-decoration:underline}`,
].join('');
