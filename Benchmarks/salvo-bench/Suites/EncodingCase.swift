/// One operation the encoding suite times.
struct EncodingCase {
    /// What is timed.
    let name: String
    /// The Foundation case doing the same job by hand, for the "vs Foundation" column.
    var baseline: String?
    /// Alamofire 5.12's µs per operation on this machine's reference run (issue 5), when
    /// one was measured: a reference, not part of this run.
    var alamofireMicroseconds: Double?
    /// A Foundation baseline rather than a Salvo API.
    var isFoundation = false
    /// One operation; returns a size from its result so the work cannot be optimised away.
    let body: () throws -> Int
}
