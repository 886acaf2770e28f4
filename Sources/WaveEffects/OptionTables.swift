import WaveCore

/// docs/cli.md's tables of each effect's options, written from the
/// declarations (`Effect.allParameters`): a test holds the page's section
/// equal to this text, and `make generated` rewrites it.
public enum OptionTables {
    /// The markers the generated section sits between in docs/cli.md.
    public static let begin = "<!-- generated from the effects' declarations by `make generated`: do not edit -->"
    public static let end = "<!-- end of generated section -->"

    /// One table per effect whose parameters are declared, in the registry's order.
    public static func markdown() -> String {
        var text = ""
        for effect in Effects.all where !effect.allParameters.isEmpty {
            text += "### \(effect.name)\n\n\(capitalised(effect.summary)).\n\n"
            text += "| Option | Accepts | Default | What it does |\n|---|---|---|---|\n"
            for info in effect.allParameters {
                let option = info.isFlag ? "`\(info.option)`" : "`\(info.option) <\(info.valueName)>`"
                let scope = switch info.scope {
                case .scene: ""
                case .frameLoop: " Only `waves demo` and `waves bench` take it."
                case .pacedLoop: " Only `waves demo` and `waves bench --preset pacing` take it."
                }
                let requires = info.requires.map { " Only with `--\($0)`." } ?? ""
                text += "| \(option) | \(cell(info.isFlag ? "a flag" : info.accepted)) | \(cell(info.defaultText ?? "")) | \(cell(info.help + scope + requires)) |\n"
            }
            text += "\n"
        }
        return text
    }

    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
