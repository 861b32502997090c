import ArgumentParser
import IAPPipeline
import IAPStore

struct Reasons: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every quarantine reason code, what it means and what to do about it.")

    @Flag(help: "Print as a Markdown table (as in the README).")
    var markdown = false

    func run() {
        if markdown {
            print("| code | meaning | what to do |\n| --- | --- | --- |")
            for reason in QuarantineReason.allCases {
                print("| `\(reason.rawValue)` | \(reason.meaning) | \(reason.remedy) |")
            }
        } else {
            for reason in QuarantineReason.allCases {
                print("\(reason.rawValue)\n    \(reason.meaning).\n    \(reason.remedy)")
            }
        }
    }
}
