/// A command's arguments after parsing: positionals, flags, and options with values.
struct Arguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: [String]] = [:]

    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// What a command accepts, for parsing and for `--help`.
struct CommandSpec {
    struct Option {
        var name: String
        var short: String? = nil
        var valueName: String? = nil  // nil: a flag
        var help: String
        var repeatable = false
    }

    var name: String
    var summary: String
    var usage: String
    var positionals: ClosedRange<Int>
    var options: [Option]
    var details: String = ""

    /// Parses `arguments` (without the command name).
    /// - Throws: `UsageError` with a one-line message.
    func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        var result = Arguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { "--" + $0.name == name || $0.short.map { "-" + $0 } == name })
            else {
                throw UsageError("unknown option \(name) for '\(self.name)'")
            }
            if option.valueName != nil {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if !option.repeatable, result.options[option.name] != nil {
                    throw UsageError("\(name) given more than once")
                }
                result.options[option.name, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                result.flags.insert(option.name)
            }
        }
        guard positionals.contains(result.positionals.count) else {
            if result.positionals.count < positionals.lowerBound {
                throw UsageError(
                    "'\(self.name)' needs \(positionals.lowerBound == 1 ? "a file" : "\(positionals.lowerBound) arguments")"
                )
            }
            throw UsageError("unexpected argument '\(result.positionals[positionals.upperBound])'")
        }
        return result
    }

    var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !options.isEmpty {
            text += "\nOptions:\n"
            let labels = options.map { option -> String in
                var label = (option.short.map { "-\($0), " } ?? "") + "--" + option.name
                if let valueName = option.valueName { label += " \(valueName)" }
                return label
            }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, options) {
                text += "  " + label + String(repeating: " ", count: width - label.count) + option.help + "\n"
            }
        }
        if !details.isEmpty { text += "\n" + details + "\n" }
        if let examples = CommandExamples.byCommand[name], !examples.isEmpty {
            text += "\nExamples:\n" + examples.map { "  " + $0 + "\n" }.joined()
        }
        return text
    }
}

/// A mistake in how a command was called (exit code 2).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
