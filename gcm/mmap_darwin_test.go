package gcm

// mapNoReserve is 0 on darwin, which reserves nothing for PROT_NONE
// mappings.
const mapNoReserve = 0
