/// The command line the bench hands a child process: the client's name, then `--name value`
/// pairs.
enum ChildArguments {
    /// The `--name value` pairs after the first argument (the client's name), by name; a
    /// last name without a value is dropped.
    static func options(after arguments: [String]) -> [String: String] {
        var values: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count {
            values[arguments[index]] = arguments[index + 1]
            index += 2
        }
        return values
    }
}
