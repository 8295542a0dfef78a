package random

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/engine/resource"
)

// generateUUID4 draws a version 4 UUID, which is also the resource's ID.
func generateUUID4(_ resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	u, err := uuid.NewRandomFromReader(src.stream)
	if err != nil {
		return nil, "", err
	}
	return resource.Map{"result": resource.String(u.String())}, resource.ID(u.String()), nil
}

// generateUUID7 makes a version 7 UUID: the time of creation, then bits drawn
// from src. A preview cannot know the time, so it leaves the UUID unknown.
func generateUUID7(_ resource.Map, src *source, preview bool) (resource.Map, resource.ID, error) {
	if preview {
		return resource.Map{"result": resource.Unknown()}, "", nil
	}
	u, err := uuid.NewV7FromReader(src.stream)
	if err != nil {
		return nil, "", err
	}
	return resource.Map{"result": resource.String(u.String())}, resource.ID(u.String()), nil
}

// importUUID imports a UUID resource from the UUID, in any form uuid.Parse
// reads; it is recorded in lowercase hyphenated form.
func importUUID(id string) (resource.ID, resource.Map, resource.Map, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return "", nil, nil, fmt.Errorf("the ID must be a UUID such as 6f1c0b8e-2d4a-4c3e-9b7a-0e5d2f8a1c4b: %w", err)
	}
	return resource.ID(u.String()), resource.Map{}, resource.Map{"result": resource.String(u.String())}, nil
}
