/// Alamofire 4's request over a stream task, by its old name. Code written against it gets a
/// compiler error naming its replacement: Alamofire 5, and Salvo, stream a response's body
/// with `DataStreamRequest` (`Session.streamRequest(...)`).
@available(*, unavailable, renamed: "DataStreamRequest",
           message: "Alamofire 5 and Salvo stream a response with DataStreamRequest, made by Session.streamRequest(...)")
public typealias StreamRequest = DataStreamRequest
