// Client code using Alamofire 4's names that Alamofire 5 renamed; it must not compile, and the
// errors must name the replacement (RouterSeedTests checks the diagnostics).
import Salvo

func streamOf(_ session: Session) -> StreamRequest? {
    nil
}
