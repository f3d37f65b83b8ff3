/// One operation the encoding suite times.
struct EncodingCase {
    /// What is timed.
    let name: String
    /// The Foundation case doing the same job by hand, for the "vs Foundation" column.
    var baseline: String?
    /// The floor case (`EncodingFloors`): the same request built by hand from precomputed
    /// output; this case's time over it is what its encoding costs.
    var floor: String?
    /// Alamofire 5.12's µs per operation in an earlier reference run on this machine, when
    /// one was measured: a reference, not part of this run.
    var alamofireMicroseconds: Double?
    /// A Foundation baseline rather than a Salvo API.
    var isFoundation = false
    /// One operation; returns a size from its result so the work cannot be optimised away.
    let body: () throws -> Int
}
