/** The benefit table's part name in a plan page document (<Prerendered>, docs/decisions/132): shared by the page model and the component. */
export const BENEFIT_TABLE_PART = "benefit-table";
