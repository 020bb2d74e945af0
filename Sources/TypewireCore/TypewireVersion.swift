/// The release this build is: `typewire --version`, the `Typewire-Version` header of `/healthz`, and the
/// `welcome` frame's `config.serverVersion` say it. `CHANGELOG.md`'s newest release is this one (a test holds
/// them equal).
public enum TypewireVersion {
    /// The version, as `CHANGELOG.md` names it (semantic versioning).
    public static let current = "0.2.0"
}
