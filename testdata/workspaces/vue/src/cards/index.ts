export { default as TitleCard } from "./TitleCard.vue";
