/// The one stylesheet every page links (`reports/style.css`): readable tables, charts that shrink with the window,
/// callouts that stand out, and a print layout without the page furniture. On a phone (up to 700 px) charts keep their
/// drawn size and scroll sideways in their own box, as wide tables do, so no text shrinks under 9 px and the page
/// itself never scrolls sideways.
enum Stylesheet {
    static let fileName = "style.css"

    static let css = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { margin: 0; background: #f6f6f4; color: #1a1a1a;
          font: 15px/1.5 "DejaVu Sans", Verdana, Arial, sans-serif; }
        main { max-width: 1340px; margin: 0 auto; padding: 24px 28px 40px; background: #ffffff; }
        h1 { font-size: 1.6em; margin: 0 0 0.4em; }
        h2 { font-size: 1.3em; margin: 1.8em 0 0.5em; padding-bottom: 0.2em; border-bottom: 2px solid #d8d8d8; }
        h3 { font-size: 1.1em; margin: 1.4em 0 0.4em; }
        h4 { font-size: 1em; margin: 1.2em 0 0.3em; }
        p { margin: 0.5em 0; }
        a { color: #0b5cad; }
        a:visited { color: #6a3d9a; }
        code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 0.9em; background: #f0f0ee;
          padding: 0 3px; border-radius: 3px; white-space: nowrap; }
        code.wrap { white-space: normal; }
        .aside { color: #555555; font-style: italic; }
        .callout { margin: 1em 0; padding: 10px 14px; border-left: 5px solid #0072b2; background: #eef5fb; }
        .callout.warning { border-left-color: #d55e00; background: #fdf0e8; }
        .callout p { margin: 0.2em 0; }
        .table-wrap { overflow-x: auto; margin: 0.6em 0 1em; }
        table { border-collapse: collapse; font-size: 0.92em; }
        th, td { padding: 4px 10px; border-bottom: 1px solid #e2e2e2; text-align: left; vertical-align: top;
          overflow-wrap: break-word; }
        td:first-child { white-space: nowrap; }
        .nw { white-space: nowrap; }
        td.long { max-width: 26em; overflow: hidden; text-overflow: ellipsis; }
        h1, h2, h3, h4, p, li { overflow-wrap: anywhere; }
        th { background: #f0f0ee; border-bottom: 2px solid #c8c8c8; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        tbody tr:nth-child(even) { background: #fafaf8; }
        figure.chart-figure { margin: 1em 0 1.4em; }
        figure.chart-figure svg { width: 100%; height: auto; border: 1px solid #e2e2e2; }
        figcaption { color: #444444; font-size: 0.9em; margin-top: 4px; }
        footer { max-width: 1340px; margin: 0 auto; padding: 12px 28px; color: #666666; font-size: 0.85em; }
        @media (max-width: 700px) {
          main { padding: 12px 12px 28px; }
          footer { padding: 12px; }
          td:first-child { white-space: normal; min-width: 7em; }
          td.long { max-width: 14em; }
          figure.chart-figure { overflow-x: auto; }
          figure.chart-figure svg { width: auto; max-width: none; }
        }
        @media print {
          body { background: #ffffff; font-size: 11pt; }
          main { max-width: none; padding: 0; }
          footer { display: none; }
          a { color: inherit; text-decoration: none; }
          figure.chart-figure, table { break-inside: avoid; }
        }

        """
}
