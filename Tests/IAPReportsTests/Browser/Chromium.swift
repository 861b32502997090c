import Foundation

/// A real headless Chromium (Debian's `chromium`, installed by `scripts/test.sh`), driven from the command line:
/// screenshots, and a page inspector that loads report pages in a frame and reports what a person would see.
///
/// The pages have no script, so the inspection runs in a harness page of the test's own (written to a temporary
/// folder) that loads each report page in an `<iframe>`; `--allow-file-access-from-files` lets it read the frame
/// and request the files links point at. Console messages of every page (CSP violations, errors) come back on
/// standard error through `--enable-logging=stderr`.
struct Chromium {
    let executable: String

    /// The browser, or nil with the reason when there is none (the test then fails: the test script installs it).
    static func find() -> Chromium? {
        let candidates = [
            ProcessInfo.processInfo.environment["IAPLENS_TEST_CHROMIUM"], "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
        ]
        for case let path? in candidates where FileManager.default.isExecutableFile(atPath: path) {
            return Chromium(executable: path)
        }
        return nil
    }

    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs the browser headless with a throwaway profile.
    func run(_ arguments: [String]) throws -> Run {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-extensions", "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
            ] + arguments
        // Standard error goes to a file, so a chatty browser can never fill a pipe nobody reads.
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = profile.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: log)) ?? Data()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Saves a PNG of the page as a window of the given size shows it.
    func screenshot(_ page: URL, to file: URL, width: Int = 1280, height: Int) throws -> Run {
        try run(["--window-size=\(width),\(height)", "--screenshot=\(file.path)", page.absoluteString])
    }

    /// Console lines Chromium logged for any page (`CONSOLE` in its log): errors and policy violations.
    static func consoleMessages(_ log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }

    /// What the harness found on one page.
    struct PageReport: Decodable {
        let url: String
        let loaded: Bool
        let title: String
        let stylesheetRules: Int
        let bodyFont: String
        let brokenLinks: [String]
        let links: Int
        let brokenImages: [String]
        let images: Int
        let scripts: Int
        let elementsWithEventHandlers: Int
        let charts: [Chart]
        let text: String
        /// Tables wider than the element that holds them, and chart labels cut by their chart's edge, at 1400 px.
        let overflows: [String]
        /// Text drawn smaller than 9 px (chart labels scaled with their chart, page text).
        let smallText: [String]
        /// The page wider than the window (it scrolls sideways as a whole), in px; 0 when it fits.
        let pageOverflow: Double
        /// Headline values and case-page figures whose box lies outside the window.
        let figuresOutside: [String]

        struct Chart: Decodable {
            let figure: String
            let bars: Int
            let points: Int
            let title: String
            let descriptionLength: Int
            let labelledBy: String
            let width: Double
        }
    }

    /// Loads each page in turn in a frame of a harness page and reports it.
    /// - Parameter width: the window's width in px: 1400 a laptop, 390 a phone.
    func inspect(_ pages: [URL], width: Int = 1400) throws -> (reports: [PageReport], console: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try String(decoding: JSONEncoder().encode(pages.map(\.absoluteString)), as: UTF8.self)
        let harness = folder.appendingPathComponent("harness.html")
        try Self.harness(pages: list, width: width).write(to: harness, atomically: true, encoding: .utf8)
        let run = try run([
            "--allow-file-access-from-files", "--virtual-time-budget=\(15_000 + 2_000 * pages.count)", "--dump-dom",
            harness.absoluteString,
        ])
        guard
            let start = run.output.range(of: "<pre id=\"out\">"),
            let end = run.output.range(of: "</pre>", range: start.upperBound..<run.output.endIndex),
            let data = Data(base64Encoded: String(run.output[start.upperBound..<end.lowerBound]))
        else {
            throw HarnessError(
                message: "the harness wrote no result (status \(run.status)): \(run.errors.suffix(2_000))")
        }
        let reports = try JSONDecoder().decode([PageReport].self, from: data)
        // The harness's own messages are not the pages'.
        let console = Self.consoleMessages(run.errors).filter { !$0.contains("harness.html") }
        return (reports, console)
    }

    struct HarnessError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func harness(pages: String, width: Int) -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>harness</title></head>
        <body><pre id="out">pending</pre><iframe id="frame" width="\(width)" height="900"></iframe>
        <script>
        const pages = \(pages);
        const results = [];
        const frame = document.getElementById('frame');
        let index = 0;
        function exists(url) {
          const request = new XMLHttpRequest();
          request.open('GET', url, false);
          try { request.send(); return (request.status === 200 || request.status === 0) ? request.responseText : null; }
          catch (error) { return null; }
        }
        function check(doc, url) {
          const report = { url: url, loaded: doc.readyState === 'complete' && doc.URL !== 'about:blank', title: doc.title,
            stylesheetRules: 0, bodyFont: getComputedStyle(doc.body).fontFamily, brokenLinks: [], links: 0,
            brokenImages: [], images: doc.images.length, scripts: doc.querySelectorAll('script').length,
            elementsWithEventHandlers: 0, charts: [], text: doc.body.innerText, overflows: [], smallText: [],
            pageOverflow: 0, figuresOutside: [] };
          const view = doc.defaultView;
          const viewport = doc.documentElement.clientWidth;
          if (doc.documentElement.scrollWidth > viewport + 1) report.pageOverflow = doc.documentElement.scrollWidth - viewport;
          for (const svg of doc.querySelectorAll('svg.chart')) {
            const box = svg.viewBox && svg.viewBox.baseVal;
            const scale = box && box.width > 0 ? svg.getBoundingClientRect().width / box.width : 1;
            for (const label of svg.querySelectorAll('text')) {
              const size = parseFloat(view.getComputedStyle(label).fontSize) * scale;
              if (label.textContent.trim() && size < 9) {
                report.smallText.push('chart text "' + label.textContent.slice(0, 30) + '" at ' + size.toFixed(1) + ' px');
                break;
              }
            }
          }
          for (const element of doc.querySelectorAll('p, li, td, th, figcaption, h1, h2, h3')) {
            const size = parseFloat(view.getComputedStyle(element).fontSize);
            if (element.textContent.trim() && size < 9) {
              report.smallText.push(element.tagName.toLowerCase() + ' "' + element.textContent.slice(0, 30) + '" at ' + size + ' px');
            }
          }
          const headline = doc.getElementById('headlines');
          const figureTables = [];
          if (headline) {
            let next = headline.nextElementSibling;
            while (next && !/^H[12]$/.test(next.tagName)) { for (const t of next.querySelectorAll('table')) figureTables.push(t); if (next.tagName === 'TABLE') figureTables.push(next); next = next.nextElementSibling; }
          }
          for (const table of figureTables.slice(0, 1)) {
            for (const row of table.querySelectorAll('tbody tr')) {
              const cell = row.children[1];
              if (!cell) continue;
              const r = cell.getBoundingClientRect();
              if (r.right > viewport + 1 || r.left < -1) report.figuresOutside.push('headline "' + row.children[0].textContent.slice(0, 30) + '"');
            }
          }
          for (const table of doc.querySelectorAll('table')) {
            const holder = table.parentElement;
            const width = table.getBoundingClientRect().width;
            if (width > holder.clientWidth + 1) {
              const head = table.querySelector('th');
              report.overflows.push('table "' + (head ? head.textContent : '') + '" is ' + Math.round(width) + ' px in ' + holder.clientWidth + ' px');
            }
          }
          for (const block of doc.querySelectorAll('h1, h2, h3, h4, p, li')) {
            if (block.scrollWidth > block.clientWidth + 1) {
              report.overflows.push(block.tagName.toLowerCase() + ' "' + block.textContent.slice(0, 40) + '" is ' + block.scrollWidth + ' px in ' + block.clientWidth + ' px');
            }
          }
          for (const svg of doc.querySelectorAll('svg.chart')) {
            const s = svg.getBoundingClientRect();
            for (const label of svg.querySelectorAll('text')) {
              const b = label.getBoundingClientRect();
              if (b.width > 0 && (b.left < s.left - 1 || b.top < s.top - 1 || b.right > s.right + 1 || b.bottom > s.bottom + 1)) {
                report.overflows.push('label "' + label.textContent.slice(0, 40) + '" cut by its chart');
              }
            }
          }
          try { for (const sheet of doc.styleSheets) report.stylesheetRules += sheet.cssRules.length; } catch (error) {}
          for (const element of doc.querySelectorAll('*')) {
            for (const attribute of element.attributes) {
              if (attribute.name.toLowerCase().startsWith('on')) report.elementsWithEventHandlers += 1;
            }
          }
          for (const link of doc.querySelectorAll('a[href]')) {
            report.links += 1;
            const href = link.getAttribute('href');
            const target = new URL(href, doc.URL);
            if (target.protocol !== 'file:') { report.brokenLinks.push(href + ' (leaves the report folder)'); continue; }
            const fragment = target.hash ? decodeURIComponent(target.hash.slice(1)) : null;
            if (href.startsWith('#')) { if (!doc.getElementById(fragment)) report.brokenLinks.push(href); continue; }
            const body = exists(target.href.split('#')[0]);
            if (body === null) { report.brokenLinks.push(href); continue; }
            if (fragment) {
              const other = new DOMParser().parseFromString(body, 'text/html');
              if (!other.getElementById(fragment)) report.brokenLinks.push(href);
            }
          }
          for (const image of doc.images) {
            if (!image.complete || image.naturalWidth === 0) report.brokenImages.push(image.getAttribute('src'));
          }
          for (const svg of doc.querySelectorAll('svg.chart')) {
            const figure = svg.closest('figure');
            const title = svg.querySelector('title');
            const description = svg.querySelector('desc');
            report.charts.push({ figure: figure ? figure.id : '', bars: svg.querySelectorAll('.bar').length,
              points: svg.querySelectorAll('.point').length, title: title ? title.textContent : '',
              descriptionLength: description ? description.textContent.length : 0,
              labelledBy: svg.getAttribute('aria-labelledby') || '', width: svg.getBoundingClientRect().width });
          }
          return report;
        }
        function next() {
          if (index >= pages.length) {
            const json = JSON.stringify(results);
            document.getElementById('out').textContent = btoa(unescape(encodeURIComponent(json)));
            return;
          }
          frame.src = pages[index];
        }
        frame.onload = function () {
          try { results.push(check(frame.contentDocument, pages[index])); }
          catch (error) { results.push({ url: pages[index], loaded: false, title: String(error), stylesheetRules: 0,
            bodyFont: '', brokenLinks: [], links: 0, brokenImages: [], images: 0, scripts: 0,
            elementsWithEventHandlers: 0, charts: [], text: '', overflows: [], smallText: [], pageOverflow: 0,
            figuresOutside: [] }); }
          index += 1;
          next();
        };
        next();
        </script></body></html>
        """
    }
}
