import TitleCard from "./TitleCard.vue";

/** The props a component takes, as @vue/test-utils reads them. */
type PropsOf<C> = C extends new (...args: any) => { $props: infer P } ? P : never;

/** A test's mounting options, as @vue/test-utils types them. */
interface MountingOptions<Props> {
  props?: (Record<string, unknown> & Props) | ({} extends Props ? null : never);
}

/** A test's mount, typed as @vue/test-utils types it. */
function mount<T, P extends PropsOf<T> = PropsOf<T>>(component: T, options?: MountingOptions<P>): T {
  void options;
  return component;
}

export const mounted = mount(TitleCard, { props: { heading: "Cards" } });
