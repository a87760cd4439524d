import { stateEntries, type ShoppingState, type StateGroup } from "../../lib/shopping-url";

/**
 * The shopping state as hidden fields, so every GET form on a page carries
 * the whole search forward (the URL is the only state there is). A form
 * leaves out the groups it asks for itself.
 */
export function StateFields({ state, omit = [] }: { state: ShoppingState; omit?: readonly StateGroup[] }) {
  return (
    <>
      {stateEntries(state, omit).map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
