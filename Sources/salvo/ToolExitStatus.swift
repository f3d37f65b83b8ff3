/// The statuses `salvo` exits with, in curl's spirit: a script can tell "all done" from
/// "some failed" from "nothing was attempted" from "stopped by the user".
enum ToolExitStatus: Int32 {
    /// Every file downloaded and verified.
    case success = 0
    /// Some files failed; the others were kept.
    case someFailed = 1
    /// A usage or input-list error: nothing was downloaded (or, for a list read as a stream,
    /// nothing after the bad line was started).
    case usage = 2
    /// Interrupted by SIGINT (Ctrl-C): 128 + 2, as shells report it.
    case interrupted = 130
}
