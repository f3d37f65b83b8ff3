/// The statuses `salvo` exits with, in curl's spirit: a script can tell "all done" from
/// "some failed" from "nothing was attempted".
enum ToolExitStatus: Int32 {
    /// Every file downloaded and verified.
    case success = 0
    /// Some files failed; the others were kept.
    case someFailed = 1
    /// A usage or input-list error: nothing was downloaded.
    case usage = 2
}
