/// The default `Session`, as Alamofire names it.
public let AF = Session.default
