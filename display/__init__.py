"""The pygame app: scenes, layout, touch, kiosk loop, simulator window, i18n."""
