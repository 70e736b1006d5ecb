package sha1dc

// The collision check, the DV table and the portable compression that keeps
// what the check needs are generated from the one description of the
// check, gen/internal/ubc, by gen/sha1dc_ubc; so are the tables the tests
// hold them to. The header of each generated file names its command.

//go:generate go -C ../gen run ./sha1dc_ubc -out ../sha1dc/ubc_generated.go -test ../sha1dc/ubc_generated_test.go
