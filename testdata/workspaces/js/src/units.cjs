/** Centimetres in one inch. */
const CM_PER_INCH=2.54;

/**
 * Converts inches to centimetres.
 * @param {number} inches
 */
function toCentimetres(inches) {
  return inches * CM_PER_INCH;
}

module.exports = { toCentimetres };
