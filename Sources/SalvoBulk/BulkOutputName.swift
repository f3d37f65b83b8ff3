import Salvo
/// The one rule for a file name the user gives (`out=` in a list, `--out`) and a directory
/// (`dir=`), shared by input lists and the command line.
enum BulkOutputName {
    /// Checks a name meant to be written inside the output directory.
    ///
    /// Subdirectories are allowed, as aria2 allows them, but a name must stay inside the
    /// directory: an absolute path or a `..` component would let one line of a list written
    /// by someone else overwrite any file the user can write.
    static func validate(_ name: String) throws(BulkValueError) {
        guard !name.isEmpty else { throw BulkValueError("file name is empty") }
        guard !hasControlCharacter(name) else { throw BulkValueError("file name '\(name)' holds a control character") }
        guard !name.hasPrefix("/") else { throw BulkValueError("file name '\(name)' is absolute; use dir= or --dir") }
        guard !name.split(separator: "/").contains("..") else {
            throw BulkValueError("file name '\(name)' climbs out of the directory with '..'")
        }
        guard !name.hasSuffix("/"), !name.split(separator: "/").allSatisfy({ $0 == "." }) else {
            throw BulkValueError("file name '\(name)' names a directory, not a file")
        }
    }

    /// Checks a directory: any path the user can name, but not an empty one, whose meaning
    /// would be a guess, nor one with control characters.
    static func validateDirectory(_ path: String) throws(BulkValueError) {
        guard !path.isEmpty else { throw BulkValueError("directory is empty") }
        guard !hasControlCharacter(path) else { throw BulkValueError("directory '\(path)' holds a control character") }
    }

    private static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
