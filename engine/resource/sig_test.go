package resource

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
)

// TestSignaturesAreTheSDKs checks the special-value signatures and the
// unknown sentinel against those of the Pulumi SDK.
func TestSignaturesAreTheSDKs(t *testing.T) {
	for _, tt := range []struct{ name, got, want string }{
		{"signature key", SigKey, sig.Key},
		{"secret", SecretSig, sig.Secret},
		{"resource reference", ResourceRefSig, sig.ResourceReference},
		{"output value", OutputSig, sig.OutputValue},
		{"asset", AssetSig, sig.AssetSig},
		{"archive", ArchiveSig, sig.ArchiveSig},
		{"byte string", ByteStringSig, sig.ByteString},
		{"unknown", UnknownSentinel, sig.UnknownStringValue},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: Cairn %q, the Pulumi SDK %q", tt.name, tt.got, tt.want)
		}
	}
}
