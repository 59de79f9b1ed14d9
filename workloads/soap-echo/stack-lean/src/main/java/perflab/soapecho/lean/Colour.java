package perflab.soapecho.lean;

/** The contract's ColourEnum. */
enum Colour {
    RED, GREEN, BLUE
}
