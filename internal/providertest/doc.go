// Package providertest runs in-process providers through Cairn's real
// deployment engine, for the lifecycle tests of the built-in providers: a
// Stack keeps its snapshot from one operation to the next and checks the
// snapshot's integrity after each.
//
//	s := providertest.New(t, provider.Factories{random.Factory()})
//	run, err := s.Up(providertest.Resource{Type: "random:index/randomPet:RandomPet", Name: "pet"})
//	// run.Steps == []string{"create pet", "create default", "create proj-dev"}
//	_, err = s.Destroy()
package providertest
