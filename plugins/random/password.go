package random

import (
	"golang.org/x/crypto/bcrypt"

	"github.com/cairn-iac/cairn/engine/resource"
)

// bcryptLimit is the most bytes bcrypt hashes; longer passwords are hashed
// by their first bcryptLimit bytes.
const bcryptLimit = 72

// generatePassword draws a RandomPassword like a RandomString. Its ID says
// nothing of the password. The bcrypt hash has a random salt, so a preview
// leaves it unknown.
func generatePassword(in resource.Map, src *source, preview bool) (resource.Map, resource.ID, error) {
	s, err := drawString(in, src)
	if err != nil {
		return nil, "", err
	}
	id := src.opaqueID()
	if preview {
		return resource.Map{"result": resource.String(s), "bcryptHash": resource.Unknown()}, id, nil
	}
	hash, err := bcryptHash(s)
	if err != nil {
		return nil, "", err
	}
	return resource.Map{"result": resource.String(s), "bcryptHash": resource.String(hash)}, id, nil
}

func bcryptHash(password string) (string, error) {
	b := []byte(password)
	if len(b) > bcryptLimit {
		b = b[:bcryptLimit]
	}
	hash, err := bcrypt.GenerateFromPassword(b, bcrypt.DefaultCost)
	return string(hash), err
}

// importPassword imports a RandomPassword from its value, which must not
// become its ID.
func importPassword(id string) (resource.ID, resource.Map, resource.Map, error) {
	_, inputs, generated, err := importString(id)
	if err != nil {
		return "", nil, nil, err
	}
	hash, err := bcryptHash(id)
	if err != nil {
		return "", nil, nil, err
	}
	generated["bcryptHash"] = resource.String(hash)
	return newSource(nil).opaqueID(), inputs, generated, nil
}
