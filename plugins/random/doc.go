// Package random is the provider of the "random" package, compatible in
// type tokens, properties and import IDs with pulumi-random 4.x: RandomString,
// RandomPassword, RandomId, RandomInteger, RandomBytes, RandomUuid,
// RandomUuid4, RandomUuid7, RandomPet and RandomShuffle, all under
// "random:index/<camelName>:<Name>".
//
// A value is chosen once, when the resource is created, and kept: every
// input (keepers included) forces a replacement when it changes, and a
// replacement chooses a new value. Secret values (RandomPassword's result
// and bcryptHash, RandomBytes' encodings) are outputs wrapped as secrets, and
// so is every generated output of a resource with a secret input other than
// keepers (a RandomId's prefix, a RandomShuffle's inputs, a RandomInteger's
// seed, a RandomString's length...): the value would reveal it.
//
// # Determinism
//
// Values are drawn in Create, as pulumi-random does, but not from the
// operating system's generator: Check records the engine's 32-byte random
// seed among the checked inputs, under the internal key "__seed" (a secret
// for the types with secret outputs), and Create keys a ChaCha8 stream with
// that seed and the other inputs. The engine checks a new resource with the
// same seed in a preview and in the update that follows, so the preview
// shows the values the update creates;
// a replacement is checked without old inputs and with another seed, so it
// draws new values. A resource that already exists keeps the seed it was
// created with. "__seed" is never an output and never part of a diff; it is
// a secret too when any input (keepers included) is, so that nobody who
// reads the state can check guesses of a secret input against the values.
// RandomInteger and RandomShuffle with a "seed" input draw, as
// pulumi-random does, from math/rand seeded with the CRC-64 of that string,
// and so give the same results as pulumi-random.
//
// Two values cannot be known in a preview and are left unknown there:
// RandomPassword's bcryptHash (bcrypt salts with fresh randomness) and
// RandomUuid7's result (it holds the time of creation).
//
// # IDs and import
//
// RandomString's ID is its result, RandomId's its b64Url without prefix,
// RandomInteger's its result, RandomPet's the name, the UUIDs' the UUID.
// RandomPassword, RandomBytes and RandomShuffle get an opaque ID drawn with
// the value, where pulumi-random has "none", the secret bytes themselves and
// "-": no ID reveals a secret, and each replacement has a new ID, so that
// the old and the new resource are told apart while both exist. A resource whose values derive from a
// secret input gets an opaque ID too, whatever its type, since an ID is
// kept and shown in plain text. A RandomPet's name is its ID, so a pet with a
// secret prefix, separator or length is named by a token: to keep a secret
// prefix, join it to a pet drawn without one in the program
// ("${prefix}-${pet.id}"), which makes the whole name secret. An opaque ID
// reads back and refreshes like any other, from the recorded state.
// Resources created before an input turned secret keep their IDs and values;
// `cairn up --replace` draws them again. Import takes the formats pulumi-random
// documents: the string itself (RandomString, RandomPassword),
// "[<prefix>,]<b64Url>" (RandomId), "<result>,<min>,<max>[,<seed>]"
// (RandomInteger), standard base64 (RandomBytes) and the UUID (the UUID
// types). RandomPet and RandomShuffle cannot be imported.
//
// No type autonames: none has a name property.
//
//	host := provider.Factories{random.Factory()}
package random
