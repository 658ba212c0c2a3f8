/// The payment sheet's style: a bottom sheet with a grabber and rounded top corners on a phone, a centred panel on
/// a desktop; rows with the current value and a chevron; light and dark (`prefers-color-scheme`); no motion when the
/// buyer asks for reduced motion. Sizes are in `rem` so the sheet reflows at 200% zoom.
enum SheetStyle {
    static let css = """
    :root { color-scheme: light dark; font-family: -apple-system, system-ui, sans-serif;
      --sheet: #f2f2f7; --card: #fff; --text: #1c1c1e; --muted: #6c6c70; --line: #d1d1d6; --grabber: #c7c7cc;
      --accent: #0a66d6; --error: #c5221f; --primary: #000; --on-primary: #fff; --backdrop: rgba(0,0,0,.4);
      --page: #e5e5ea; }
    @media (prefers-color-scheme: dark) {
      :root { --sheet: #1c1c1e; --card: #2c2c2e; --text: #f2f2f7; --muted: #aeaeb2; --line: #3a3a3c;
        --grabber: #636366; --accent: #4da3ff; --error: #ff6961; --primary: #f2f2f7; --on-primary: #000;
        --backdrop: rgba(0,0,0,.6); --page: #000; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; min-height: 100vh; background: var(--page); color: var(--text); }
    .backdrop { position: fixed; inset: 0; background: var(--backdrop); }
    .sheet { position: relative; z-index: 1; background: var(--sheet); color: var(--text);
      width: min(27.5rem, calc(100% - 2rem)); margin: 8vh auto; border-radius: 14px; padding: .75rem 1rem 1.25rem;
      box-shadow: 0 10px 40px rgba(0,0,0,.3); }
    .grabber { display: none; width: 2.25rem; height: .3rem; border-radius: .15rem; background: var(--grabber);
      margin: 0 auto .6rem; }
    @media (max-width: 37.5rem) {
      .sheet { position: fixed; left: 0; right: 0; bottom: 0; width: auto; margin: 0; max-height: 94vh;
        overflow-y: auto; border-radius: 14px 14px 0 0; padding-bottom: max(1.25rem, env(safe-area-inset-bottom)); }
      .grabber { display: block; }
    }
    @media (prefers-reduced-motion: no-preference) {
      .sheet { animation: sheet-in .25s ease-out; }
      .chevron { transition: transform .15s; }
      @keyframes sheet-in { from { transform: translateY(2rem); opacity: 0; } to { transform: none; opacity: 1; } }
    }
    .sheet-header h1 { font-size: 1.05rem; margin: 0; font-weight: 600; }
    .muted { color: var(--muted); font-size: .8rem; margin: .15rem 0 .6rem; }
    .rows { list-style: none; margin: 0 0 .75rem; padding: 0; background: var(--card); border-radius: 10px; }
    .row + .row { border-top: 1px solid var(--line); }
    .row-button { display: grid; grid-template-columns: 5.5rem 1fr auto; gap: .5rem; align-items: center; width: 100%;
      margin: 0; padding: .75rem .85rem; background: none; border: 0; border-radius: 10px; color: inherit;
      font: inherit; text-align: left; cursor: pointer; }
    .row-title { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .02em; }
    .row-value { overflow-wrap: anywhere; }
    .row-value.needed { color: var(--accent); }
    .chevron::before { content: "\\203A"; display: inline-block; font-size: 1.4rem; line-height: 1; color: var(--muted); }
    .row-button[aria-expanded=true] .chevron { transform: rotate(90deg); }
    .picker { padding: 0 .85rem .85rem; }
    .summary { padding: 0 .25rem; }
    dl { display: grid; grid-template-columns: 1fr auto; gap: .3rem 1rem; margin: 0 0 .5rem; }
    dt, dd { margin: 0; } dd { text-align: right; font-variant-numeric: tabular-nums; }
    #line-items { color: var(--muted); font-size: .9rem; }
    .total { border-top: 1px solid var(--line); padding-top: .55rem; font-weight: 600; font-size: 1.05rem; }
    fieldset { border: 0; margin: 0; padding: 0; }
    label { display: block; font-size: .8rem; color: var(--muted); margin: .45rem 0 .15rem; }
    .method { display: grid; grid-template-columns: auto 1fr auto; gap: .5rem; align-items: start; padding: .35rem 0; }
    .method label { display: inline; font-size: 1rem; color: inherit; margin: 0; }
    .method small { display: block; color: var(--muted); }
    input { font: inherit; color: inherit; background: var(--sheet); padding: .45rem .55rem;
      border: 1px solid var(--line); border-radius: 8px; width: 100%; }
    input[type=radio] { width: auto; margin-top: .25rem; accent-color: var(--accent); }
    button { font: inherit; }
    .picker button { margin-top: .6rem; padding: .45rem .9rem; border-radius: 8px; border: 1px solid var(--line);
      background: var(--card); color: var(--accent); cursor: pointer; }
    .pay-button { display: block; width: 100%; margin-top: .75rem; padding: .85rem; border: 0; border-radius: 10px;
      background: var(--primary); color: var(--on-primary); font-weight: 600; font-size: 1.05rem; cursor: pointer; }
    .pay-button[disabled] { opacity: .45; cursor: not-allowed; }
    .pay-button[hidden] { display: none; }
    .apple-pay-button { -webkit-appearance: -apple-pay-button; -apple-pay-button-type: buy;
      -apple-pay-button-style: black; width: 100%; height: 2.75rem; border: 0; margin: .5rem 0; }
    apple-pay-button { --apple-pay-button-width: 100%; --apple-pay-button-height: 2.75rem;
      --apple-pay-button-border-radius: 10px; display: block; margin: .5rem 0; }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .error { color: var(--error); }
    .status { font-size: .85rem; margin: -.4rem .25rem .6rem; }
    #result:empty, .status:empty { margin: 0; padding: 0; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
      white-space: nowrap; }
    """
}
